// Exercises: rand() after srand(42) and srand(12345) (glibc's additive
// feedback generator), default seed (1), RAND_MAX, re-seeding reproduces
// the sequence, and a derived dice histogram.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("RAND_MAX = %d\n", RAND_MAX);
    printf("default seed:");
    for (int i = 0; i < 5; i++) printf(" %d", rand());
    printf("\n");
    srand(42);
    printf("srand(42):");
    for (int i = 0; i < 10; i++) printf(" %d", rand());
    printf("\n");
    srand(12345);
    printf("srand(12345):");
    for (int i = 0; i < 10; i++) printf(" %d", rand());
    printf("\n");
    srand(1);
    printf("srand(1) same as default:");
    for (int i = 0; i < 5; i++) printf(" %d", rand());
    printf("\n");
    srand(0);
    printf("srand(0):");
    for (int i = 0; i < 3; i++) printf(" %d", rand());
    printf("\n");
    srand(42);
    int hist[6] = {0};
    for (int i = 0; i < 60000; i++) hist[rand() % 6]++;
    printf("dice:");
    for (int i = 0; i < 6; i++) printf(" %d", hist[i]);
    printf("\n");
    srand(7);
    double s = 0;
    for (int i = 0; i < 1000; i++) s += (double)rand() / RAND_MAX;
    printf("mean of 1000 uniforms (seed 7) = %.12f\n", s / 1000);
    return 0;
}
