// §2.5.11: complex is among the supported types; a `+` reduction of a double _Complex over 2
// gangs.
#include <stdio.h>
#include <complex.h>
int main(void) {
    double _Complex z = 1.0 + 1.0 * I;
#pragma acc parallel num_gangs(2) reduction(+:z)
    {
        z += 2.0 + 1.0 * I;
    }
    printf("z = %.1f%+.1fi\n", creal(z), cimag(z));
    return 0;
}
