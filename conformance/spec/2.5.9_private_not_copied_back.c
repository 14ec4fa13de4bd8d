// §2.5.9: "The private clause on a parallel construct ... declares that a copy of each item on
// the list will be created for each parallel gang." The gangs write their own copies; the
// original variable is untouched.
#include <stdio.h>
int main(void) {
    int x = 5;
    int seen[3] = {0, 0, 0};
#pragma acc parallel num_gangs(3) private(x) copy(seen)
    {
#pragma acc loop gang
        for (int g = 0; g < 3; g++) {
            x = 100 + g;
            seen[g] = x;
        }
    }
    printf("x = %d, seen = %d %d %d\n", x, seen[0], seen[1], seen[2]);
    return 0;
}
