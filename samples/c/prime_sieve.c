// Exercises: the sieve of Eratosthenes up to 200000 on a calloc'd byte
// array, counting primes below powers of ten, listing the first primes,
// twin primes, and a prime gap maximum.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    const int N = 200000;
    unsigned char *composite = calloc(N + 1, 1);
    if (!composite) return 1;
    composite[0] = composite[1] = 1;
    for (long i = 2; i * i <= N; i++)
        if (!composite[i])
            for (long j = i * i; j <= N; j += i) composite[j] = 1;
    printf("first primes:");
    int shown = 0;
    for (int i = 2; shown < 25; i++)
        if (!composite[i]) { printf(" %d", i); shown++; }
    printf("\n");
    int count = 0, limit = 10, twins = 0, last = 2, maxgap = 0, gapat = 0;
    for (int i = 2; i <= N; i++) {
        if (!composite[i]) {
            count++;
            if (i - last > maxgap) { maxgap = i - last; gapat = last; }
            if (i - last == 2) twins++;
            last = i;
        }
        if (i == limit) { printf("pi(%d) = %d\n", limit, count); limit *= 10; }
    }
    printf("pi(%d) = %d twins %d max gap %d after %d largest %d\n", N, count, twins, maxgap, gapat, last);
    free(composite);
    return 0;
}
