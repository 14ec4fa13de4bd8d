// §2.5.11: "For each variable, a private copy is created for each parallel gang and initialized
// for that operator" -- the table's initialisation values, read inside the region.
#include <stdio.h>
#include <limits.h>
int main(void) {
    int s = 7, p = 7, hi = 7, lo = 7, band = 7, bor = 7, bxor = 7, land = 0, lor = 7;
    int seen[9];
#pragma acc parallel num_gangs(1) copyout(seen) reduction(+:s) reduction(*:p) reduction(max:hi) \
    reduction(min:lo) reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) reduction(||:lor)
    {
        seen[0] = s;
        seen[1] = p;
        seen[2] = hi == INT_MIN;
        seen[3] = lo == INT_MAX;
        seen[4] = band == ~0;
        seen[5] = bor;
        seen[6] = bxor;
        seen[7] = land;
        seen[8] = lor;
    }
    printf("+ %d  * %d  max-least %d  min-largest %d  & %d  | %d  ^ %d  && %d  || %d\n",
           seen[0], seen[1], seen[2], seen[3], seen[4], seen[5], seen[6], seen[7], seen[8]);
    printf("after: %d %d %d %d %d %d %d %d %d\n", s, p, hi, lo, band, bor, bxor, land, lor);
    return 0;
}
