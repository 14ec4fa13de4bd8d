// §2.6.5: an array of structs in a copy clause: every member of every element is copied both ways.
#include <stdio.h>
typedef struct { int key; double val; } entry;
int main(void) {
    entry tab[6];
    for (int i = 0; i < 6; i++) { tab[i].key = i; tab[i].val = i * 1.5; }
#pragma acc parallel loop copy(tab)
    for (int i = 0; i < 6; i++) { tab[i].val += tab[i].key; tab[i].key *= 10; }
    printf("%d %.1f %d %.1f\n", tab[1].key, tab[1].val, tab[5].key, tab[5].val);
    return 0;
}
