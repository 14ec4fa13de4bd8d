// Issue 14, found by the front-end fuzzer: a file-scope complex object initialized with a real
// constant (`double _Complex z = 1.0;`, C11 6.7.9p10 and 6.3.1.7: the value converts to the
// complex type) was an internal error (exit 101): the conversion asked for a temporary, and at
// file scope there is no function to hold one. Globals, static locals, arrays and struct members
// of each complex type, used by a kernel that sums them.
#include <complex.h>
#include <stdio.h>

float _Complex fz = 1.5f;
double _Complex dz = 2;
long double _Complex lz = 0.25L;
double _Complex table[3] = {1.0, 2.0, 3.0};
struct particle { double mass; double _Complex pos; } p = {2.0, 4.0};

int main(void) {
    static float _Complex scale = 0.5;
    double re = 0, im = 0;
    #pragma acc parallel loop reduction(+:re,im) copyin(table)
    for (int i = 0; i < 3; i++) {
        re += creal(table[i]) * crealf(scale);
        im += cimag(table[i]);
    }
    printf("%g %g %g\n", crealf(fz), creal(dz), (double)creall(lz));
    printf("%g %g\n", re, im);
    printf("%g %g %g\n", p.mass, creal(p.pos), cimag(p.pos));
    return 0;
}
