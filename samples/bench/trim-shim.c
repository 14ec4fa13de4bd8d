/* xfer17 (session 14, issue 15): time glibc's malloc_trim inside a program (accsim calls it
 * before a large allocation that follows many frees, core/src/exec/memory/give_back.rs).
 *
 * Usage: gcc -O2 -shared -fPIC -o /tmp/trim-shim.so samples/bench/trim-shim.c -ldl
 *        LD_PRELOAD=/tmp/trim-shim.so accsim run PROGRAM.c      (NOTRIM=1: skip every trim)
 * Prints each call's wall and thread CPU milliseconds on standard error.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int malloc_trim(size_t pad){
  static int (*real)(size_t); if(!real) real=dlsym(RTLD_NEXT,"malloc_trim");
  const char*e=getenv("NOTRIM"); if (e && *e=='1') { fprintf(stderr,"trim skipped\n"); return 0; }
  struct timespec a,b; clock_gettime(CLOCK_THREAD_CPUTIME_ID,&a); double t=now(); int r=real(pad); clock_gettime(CLOCK_THREAD_CPUTIME_ID,&b); fprintf(stderr,"malloc_trim %.2f ms cpu %.2f ms\n",(now()-t)*1e3,((b.tv_sec-a.tv_sec)+(b.tv_nsec-a.tv_nsec)*1e-9)*1e3); return r;
}
