// The atomic forms of Cray CCE (seeds/003, ATOMIC: "x++ … x binop= expr … operator is one of +,
// *, -, /, &, ^, |, <<, or >>"): a histogram with `atomic update` and a ticket counter with
// `atomic capture`, both forms CCE documents; `accsim info --cray` names the form of each, and
// the execution model runs both kernels on CCE's implicit queue.
// accsim-flags: --cray
#include <stdio.h>

#define N 4096
#define BINS 16

int main(void) {
    int data[N], hist[BINS] = {0}, order[N];
    int next = 0;
    for (int i = 0; i < N; i++)
        data[i] = (i * 7 + i / 5) % BINS;
    #pragma acc parallel loop copyin(data) copy(hist)
    for (int i = 0; i < N; i++) {
        #pragma acc atomic update
        hist[data[i]]++;
    }
    #pragma acc parallel loop copy(next) copyout(order)
    for (int i = 0; i < N; i++) {
        int mine;
        #pragma acc atomic capture
        mine = next++;
        order[i] = mine;
    }
    long check = 0;
    for (int i = 0; i < N; i++)
        check += order[i];
    for (int b = 0; b < BINS; b++)
        printf("%d%s", hist[b], b + 1 < BINS ? " " : "\n");
    printf("tickets %d, sum %ld\n", next, check);
    return 0;
}
