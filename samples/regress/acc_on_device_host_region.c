// Issue 12 item 4: `acc_on_device` answers where the code runs (§3.2.14). With
// acc_device_host it is nonzero outside compute regions and "in an accelerator parallel or
// kernels region that is executed on the host processor" — here the `if(n > THRESHOLD)` of a
// small problem, and every region after `acc_set_device_type(acc_device_host)` (§3.2.2) — and
// zero on the accelerator. A `routine` called from a region answers for where it is called.
#include <stdio.h>
#include <openacc.h>

#define THRESHOLD 1000

#pragma acc routine seq
static int running_on_host(void) {
    return acc_on_device(acc_device_host) != 0;
}

/* Scale x; report whether the work ran on the host, asked directly and through a routine. */
static void scale(double *x, int n, double a, int where[2]) {
#pragma acc parallel num_gangs(1) if(n > THRESHOLD) copy(x[0:n]) copyout(where[0:2])
    {
        where[0] = acc_on_device(acc_device_host) != 0;
        where[1] = running_on_host();
#pragma acc loop vector
        for (int i = 0; i < n; i++)
            x[i] *= a;
    }
}

/* The same with a kernels construct: a sum computed where the data lives. */
static double total(const double *x, int n, int *on_host) {
    double sum = 0;
    int host = -1;
#pragma acc kernels if(n > THRESHOLD) copyin(x[0:n]) copy(sum) copyout(host)
    {
        host = acc_on_device(acc_device_not_host) == 0;
        for (int i = 0; i < n; i++)
            sum += x[i];
    }
    *on_host = host;
    return sum;
}

int main(void) {
    static double x[5000];
    int sizes[2] = {10, 5000};
    printf("host code: acc_on_device(acc_device_host) = %d\n", acc_on_device(acc_device_host) != 0);
    for (int k = 0; k < 2; k++) {
        int n = sizes[k], where[2] = {-1, -1}, host = -1;
        for (int i = 0; i < n; i++)
            x[i] = i;
        scale(x, n, 2.0, where);
        double s = total(x, n, &host);
        printf("n = %4d: parallel on host: %d (routine: %d), kernels on host: %d, sum = %.0f\n", n, where[0], where[1], host, s);
    }
    acc_set_device_type(acc_device_host);
    int where[2] = {-1, -1}, host = -1;
    scale(x, 5000, 0.5, where);
    double s = total(x, 5000, &host);
    printf("after acc_set_device_type(acc_device_host): parallel %d (routine: %d), kernels %d, sum = %.0f\n", where[0], where[1], host, s);
    return 0;
}
