#ifndef _FUZZ_SYS_TIME_H
#define _FUZZ_SYS_TIME_H
#include <time.h>
struct timeval { long tv_sec; long tv_usec; };
extern int gettimeofday(struct timeval *restrict, void *restrict);
#endif
