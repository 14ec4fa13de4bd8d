// §2.5.10: a firstprivate array: each gang's copy starts with the host's values.
#include <stdio.h>
int main(void) {
    double coef[3] = {0.25, 0.5, 0.25};
    double in[10], out[10];
    for (int i = 0; i < 10; i++) in[i] = 4.0 * i;
#pragma acc parallel num_gangs(2) firstprivate(coef) copyin(in) copyout(out)
    {
#pragma acc loop gang
        for (int i = 1; i < 9; i++) out[i] = coef[0] * in[i - 1] + coef[1] * in[i] + coef[2] * in[i + 1];
    }
    printf("out = %.2f %.2f %.2f\n", out[1], out[4], out[8]);
    return 0;
}
