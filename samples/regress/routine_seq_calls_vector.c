// Issue 12, compile-time errors: a `routine seq` procedure "does not contain nor does it call
// another procedure that contains a loop with a gang, worker or vector clause" (§2.12.1.4).
// Here the seq routine calls a vector routine; gcc rejects it ("routine call uses OpenACC
// parallelism disallowed by containing routine"). Both sites must be named.
// expect-exit: 2
// expect-stderr: error[routine]: `normalize` is a `routine seq` and `row_sum` a `routine vector`
// expect-stderr: routine_seq_calls_vector.c:26:15
// expect-stderr: `row_sum` is declared `routine vector` here
#include <stdio.h>

#define N 32

#pragma acc routine vector
float row_sum(const float *row, int n)
{
    float s = 0.0f;
#pragma acc loop vector reduction(+:s)
    for (int i = 0; i < n; i++)
        s += row[i];
    return s;
}

#pragma acc routine seq
void normalize(float *row, int n)
{
    float s = row_sum(row, n); /* expect: compile-error */
    for (int i = 0; i < n; i++)
        row[i] /= s;
}

int main(void)
{
    float a[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            a[i][j] = 1.0f + j;
#pragma acc parallel loop gang vector copy(a)
    for (int i = 0; i < N; i++)
        normalize(a[i], N);
    printf("%f\n", a[3][3]);
    return 0;
}
