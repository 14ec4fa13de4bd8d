#ifndef _FUZZ_COMPLEX_H
#define _FUZZ_COMPLEX_H
#define complex _Complex
#define _Complex_I (__extension__ 1.0iF)
#define I _Complex_I
extern double creal(double _Complex);
extern double cimag(double _Complex);
extern float crealf(float _Complex);
extern float cimagf(float _Complex);
extern long double creall(long double _Complex);
extern long double cimagl(long double _Complex);
extern double cabs(double _Complex);
extern double _Complex conj(double _Complex);
extern double _Complex cexp(double _Complex);
extern double _Complex csqrt(double _Complex);
#endif
