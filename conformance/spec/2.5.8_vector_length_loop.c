// §2.5.8: "This vector length will be used for loops annotated with the vector clause on a loop
// directive". A vector loop of 100 iterations with vector_length(32) runs each iteration once.
#include <stdio.h>
int main(void) {
    double x[100], y[100];
    for (int i = 0; i < 100; i++) { x[i] = i; y[i] = 1.0; }
#pragma acc parallel num_gangs(1) vector_length(32) copyin(x) copy(y)
    {
#pragma acc loop vector
        for (int i = 0; i < 100; i++) y[i] = 2.0 * x[i] + y[i];
    }
    double s = 0;
    for (int i = 0; i < 100; i++) s += y[i];
    printf("sum = %.1f\n", s);
    return 0;
}
