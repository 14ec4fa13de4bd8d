/* The C library as a Fortran translation sees it: the declarations of the routines, types and
 * objects that the runtime (runtime.h) and the translator's C use, as glibc declares them on
 * x86-64 (LP64: `long` and pointers are 8 bytes), in place of `#include <stdio.h>` and the other
 * system headers. The translation is then complete C that needs no preprocessor: accsim lowers it
 * as it stands, without a `cc -E` run and the parsing of 3,500 lines of system headers on every
 * run of a Fortran program (issue 16, the fixed cost of a run). A translation names only what
 * this file declares (runtime.rs's test `translations_declare_every_library_name` and the
 * lowering's refusal of an implicit declaration in a translation keep it so); the C library shim
 * binds each routine by name, as it binds glibc's.
 * Macros the headers would give are written out where they are used: `isnan(x)` is
 * `__builtin_isnan(x)`, `isinf(x)` is `__builtin_isinf_sign(x)` and `EOF` is `(-1)` (glibc's
 * definitions), `CLOCKS_PER_SEC` is `((clock_t) 1000000)` (POSIX XSI) and `I` is
 * `(__extension__ 1.0iF)`. */
typedef unsigned long size_t;
typedef long clock_t;
typedef long time_t;
typedef struct _IO_FILE FILE;

/* <stdio.h> */
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
int printf(const char *restrict, ...);
int fprintf(FILE *restrict, const char *restrict, ...);
int sprintf(char *restrict, const char *restrict, ...);
int snprintf(char *restrict, size_t, const char *restrict, ...);
int puts(const char *);
int putchar(int);
int fputs(const char *restrict, FILE *restrict);
int fputc(int, FILE *);
int fflush(FILE *);
size_t fwrite(const void *restrict, size_t, size_t, FILE *restrict);
int getchar(void);

/* <stdlib.h> */
void *malloc(size_t);
void *calloc(size_t, size_t);
void *realloc(void *, size_t);
void free(void *);
void exit(int);
void abort(void);
int abs(int);
long labs(long);
int atoi(const char *);
long strtol(const char *restrict, char **restrict, int);
double strtod(const char *restrict, char **restrict);

/* <string.h> */
void *memcpy(void *restrict, const void *restrict, size_t);
void *memmove(void *, const void *, size_t);
void *memset(void *, int, size_t);
int memcmp(const void *, const void *, size_t);
size_t strlen(const char *);
char *strcpy(char *restrict, const char *restrict);
int strcmp(const char *, const char *);
int strncmp(const char *, const char *, size_t);

/* <time.h> */
clock_t clock(void);
time_t time(time_t *);

/* <math.h>: the elemental functions of Fortran's intrinsics, of `double` and of `float`. */
double sqrt(double);
double exp(double);
double log(double);
double log10(double);
double sin(double);
double cos(double);
double tan(double);
double asin(double);
double acos(double);
double atan(double);
double sinh(double);
double cosh(double);
double tanh(double);
double atan2(double, double);
double pow(double, double);
double fabs(double);
double fmod(double, double);
double copysign(double, double);
double floor(double);
double ceil(double);
double trunc(double);
double round(double);
double fmax(double, double);
double fmin(double, double);
float sqrtf(float);
float expf(float);
float logf(float);
float log10f(float);
float sinf(float);
float cosf(float);
float tanf(float);
float asinf(float);
float acosf(float);
float atanf(float);
float sinhf(float);
float coshf(float);
float tanhf(float);
float atan2f(float, float);
float powf(float, float);
float fabsf(float);
float fmodf(float, float);
float copysignf(float, float);
float floorf(float);
float ceilf(float);
float truncf(float);
float roundf(float);
float fmaxf(float, float);
float fminf(float, float);

/* <complex.h>: the parts, `abs`, `conjg`, `**` and the elemental functions of complex values. */
double creal(double _Complex);
double cimag(double _Complex);
double cabs(double _Complex);
double carg(double _Complex);
double _Complex conj(double _Complex);
double _Complex cpow(double _Complex, double _Complex);
double _Complex csqrt(double _Complex);
double _Complex cexp(double _Complex);
double _Complex clog(double _Complex);
double _Complex csin(double _Complex);
double _Complex ccos(double _Complex);
double _Complex ctan(double _Complex);
double _Complex casin(double _Complex);
double _Complex cacos(double _Complex);
double _Complex catan(double _Complex);
double _Complex csinh(double _Complex);
double _Complex ccosh(double _Complex);
double _Complex ctanh(double _Complex);
float crealf(float _Complex);
float cimagf(float _Complex);
float cabsf(float _Complex);
float cargf(float _Complex);
float _Complex conjf(float _Complex);
float _Complex cpowf(float _Complex, float _Complex);
float _Complex csqrtf(float _Complex);
float _Complex cexpf(float _Complex);
float _Complex clogf(float _Complex);
float _Complex csinf(float _Complex);
float _Complex ccosf(float _Complex);
float _Complex ctanf(float _Complex);
float _Complex casinf(float _Complex);
float _Complex cacosf(float _Complex);
float _Complex catanf(float _Complex);
float _Complex csinhf(float _Complex);
float _Complex ccoshf(float _Complex);
float _Complex ctanhf(float _Complex);
