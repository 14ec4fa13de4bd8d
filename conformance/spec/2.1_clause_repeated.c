// §2.1: "clauses may be repeated unless otherwise specified" -- two copyin clauses and two
// copyout clauses on one construct, each naming different arrays.
#include <stdio.h>
int main(void) {
    double x[5], y[5], s[5], d[5];
    for (int i = 0; i < 5; i++) { x[i] = i + 0.5; y[i] = 2.0 * i; }
#pragma acc parallel loop copyin(x) copyin(y) copyout(s) copyout(d)
    for (int i = 0; i < 5; i++) { s[i] = x[i] + y[i]; d[i] = y[i] - x[i]; }
    for (int i = 0; i < 5; i++) printf("%.1f %.1f\n", s[i], d[i]);
    return 0;
}
