#ifndef _FUZZ_STDLIB_H
#define _FUZZ_STDLIB_H
#include <stddef.h>
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
extern void *malloc(size_t);
extern void *calloc(size_t, size_t);
extern void *realloc(void *, size_t);
extern void free(void *);
extern int atoi(const char *);
extern long atol(const char *);
extern double atof(const char *);
extern long strtol(const char *restrict, char **restrict, int);
extern unsigned long strtoul(const char *restrict, char **restrict, int);
extern double strtod(const char *restrict, char **restrict);
extern float strtof(const char *restrict, char **restrict);
extern int rand(void);
extern void srand(unsigned);
extern long random(void);
extern void srandom(unsigned);
extern int abs(int);
extern long labs(long);
extern div_t div(int, int);
extern ldiv_t ldiv(long, long);
extern void exit(int) __attribute__((__noreturn__));
extern void abort(void) __attribute__((__noreturn__));
extern int atexit(void (*)(void));
extern char *getenv(const char *);
extern void qsort(void *, size_t, size_t, int (*)(const void *, const void *));
extern void *bsearch(const void *, const void *, size_t, size_t, int (*)(const void *, const void *));
#endif
