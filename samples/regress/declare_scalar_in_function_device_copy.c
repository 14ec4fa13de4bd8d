// Issue 12 (session 6, item 7b): a scalar in a function-scope `declare` is used through its
// device copy by the compute constructs after it. §2.10: in a function, "the clauses have exactly
// the same behavior as having an explicit data construct surrounding the body of the procedure
// with these clauses", and §2.5.1 makes a scalar firstprivate only when it "does not appear in a
// data clause for the construct or any enclosing data construct". accsim made `count` (and
// `scale`) firstprivate, so the kernel's update was lost and `update self` read the old device
// value. (A scalar mapped only by a caller's data region stays firstprivate: that construct does
// not enclose the parallel construct lexically.)
#include <stdio.h>

static int tally(const int *v, int n)
{
    int count = 0;
    double scale = 0.5;
#pragma acc declare copyin(count, scale)
#pragma acc parallel loop copyin(v[0:n])
    for (int i = 0; i < n; i++) {
        if (v[i] * scale > 3.0) {
#pragma acc atomic update
            count++;
        }
    }
#pragma acc parallel num_gangs(1)
    scale = 2.0;
#pragma acc update self(count, scale)
    printf("scale on the device: %.1f\n", scale);
    return count;
}

int main(void)
{
    int v[20];
    for (int i = 0; i < 20; i++) v[i] = i;
    printf("count = %d\n", tally(v, 20));
    return 0;
}
