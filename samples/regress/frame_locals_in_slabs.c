// Issue 15 (small blocks in slabs): a call's address-taken locals and VLAs of up to 256 bytes are
// slots of shared slabs, freed when the call returns and reused by the next call. Recursion with
// locals of several sizes (an int, a small array, a 256-byte struct, a 300-byte array that stays
// its own block, a VLA), pointers to a caller's locals written by callees, and a struct copied
// between frames. Output equal to gcc -O2's, on both engines.
#include <stdio.h>
#include <string.h>

struct big {
    double v[32];
};

static void add(int *counter, int k)
{
    *counter += k;
}

static void fill(struct big *b, double x)
{
    for (int i = 0; i < 32; i++)
        b->v[i] = x * i;
}

static long recurse(int depth, unsigned *seed, struct big *parent)
{
    int count = 0;
    int small[5];
    struct big mine;
    char wide[300];
    *seed = *seed * 1103515245u + 12345u;
    for (int i = 0; i < 5; i++)
        small[i] = (int)(*seed >> (i + 4) & 0x3f);
    fill(&mine, (double)(depth + 1));
    if (parent != NULL)
        mine.v[0] = parent->v[31];
    memset(wide, depth, sizeof wide);
    add(&count, small[depth % 5] + wide[299]);
    int n = depth % 7 + 1;
    int vla[n];
    for (int i = 0; i < n; i++)
        vla[i] = i * depth;
    add(&count, vla[n - 1]);
    if (depth == 0)
        return count + (long)mine.v[0];
    struct big copy = mine;
    return count + recurse(depth - 1, seed, &copy) + recurse(depth - 1, seed, &mine);
}

int main(void)
{
    unsigned seed = 3u;
    long total = 0;
    for (int r = 0; r < 3; r++)
        total += recurse(10, &seed, NULL);
    printf("frames %ld seed %u\n", total, seed);
    return 0;
}
