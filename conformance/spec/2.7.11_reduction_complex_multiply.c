// §2.7.11 with the §2.5.11 table: a `*` reduction of a float _Complex over a loop: the product of
// 1+i (four times) is -4 (exact in every grouping), combined with the original 2+0i.
#include <stdio.h>
#include <complex.h>
int main(void) {
    float _Complex z = 2.0f;
#pragma acc parallel loop reduction(*:z)
    for (int k = 0; k < 4; k++) z *= 1.0f + I;
    printf("z = %.1f%+.1fi\n", crealf(z), cimagf(z));
    return 0;
}
