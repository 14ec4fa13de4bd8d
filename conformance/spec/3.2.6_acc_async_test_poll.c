// §3.2.6: acc_async_test returns zero while operations on the queue are incomplete and nonzero
// once they have all completed; polling until it is nonzero is a valid way to wait.
#include <stdio.h>
#include <openacc.h>
int main(void) {
    double v[200];
#pragma acc parallel loop async(9) copyout(v)
    for (int i = 0; i < 200; i++) v[i] = i * 0.5;
    while (!acc_async_test(9)) {
    }
    printf("v[199] = %.1f\n", v[199]);
    return 0;
}
