// §2.7.11: "For each reduction variable, a private copy is created for each iteration of the
// associated loop or loops and initialized for that operator ... At the end of the loop, the
// values for each iteration are combined". A gang loop sum of squares.
#include <stdio.h>
int main(void) {
    long s = 0;
#pragma acc parallel loop gang num_gangs(7) reduction(+:s)
    for (int i = 0; i < 1000; i++) s += (long)i * i;
    printf("s = %ld\n", s);
    return 0;
}
