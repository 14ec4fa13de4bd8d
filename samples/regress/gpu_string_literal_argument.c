/* A string literal passed to a `routine seq` function from device code (issue 16: the Fortran
 * translation's character routines take `signed char *`; the same class in C). C converts the
 * literal's `char *` to the parameter's type implicitly (C11 6.5.2.2p7); the CUDA translation,
 * compiled as C++ by NVRTC, must write the conversion (OpenACC 2.0 §2.12.1: a routine called from
 * device code runs there). */
#include <stdio.h>

#define N 8

#pragma acc routine seq
static int count_char(const char *s, char c) {
    int n = 0;
    for (; *s; s++)
        if (*s == c) n++;
    return n;
}

int main(void) {
    int r[N];
#pragma acc parallel loop copyout(r)
    for (int i = 0; i < N; i++)
        r[i] = count_char(i % 2 ? "banana" : "cherry", i % 2 ? 'a' : 'r') * 10 + i;
    for (int i = 0; i < N; i++) printf("%d ", r[i]);
    printf("\n");
    return 0;
}
