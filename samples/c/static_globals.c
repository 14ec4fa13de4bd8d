// Exercises: static local variables (persist across calls, initialized
// once), globals with initializers (scalars, arrays, pointers to globals,
// string tables, structs pointing to other globals), zero-initialized
// globals and tentative definitions, and file-scope static.
#include <stdio.h>

int counter = 100;
int zeroed;
int tentative;
int tentative;
double gd = 2.5;
int garr[5] = {1, 2, 3};
int *gptr = &garr[2];
int **gpp = &gptr;
const char *gnames[] = {"zero", "one", "two", "three"};
const char gstr[] = "global string";
char gbuf[32];
struct cfg { const char *name; int *value; double scale; };
struct cfg gcfg = {"counter", &counter, 0.5};
struct cfg gcfgs[] = {{"a", &garr[0], 1.0}, {"b", &garr[1], 2.0}, {"c", 0, 3.0}};
static int file_static = 7;
int *gend = garr + 5;
long gsize = sizeof garr;

static int next_id(void) {
    static int id = 0;
    return ++id;
}

static int fib_static(void) {
    static int a = 0, b = 1;
    int r = a;
    int t = a + b;
    a = b;
    b = t;
    return r;
}

static const char *label(int i) {
    static char buf[16];
    snprintf(buf, sizeof buf, "item-%d", i);
    return buf;
}

int main(void) {
    printf("counter=%d zeroed=%d tentative=%d gd=%g\n", counter, zeroed, tentative, gd);
    printf("garr: %d %d %d %d %d\n", garr[0], garr[1], garr[2], garr[3], garr[4]);
    printf("*gptr=%d **gpp=%d gend-garr=%td gsize=%ld\n", *gptr, **gpp, gend - garr, gsize);
    *gptr = 33;
    printf("garr[2]=%d\n", garr[2]);
    for (int i = 0; i < 4; i++) printf("%s%s", gnames[i], i < 3 ? "," : "\n");
    printf("%s (%zu bytes)\n", gstr, sizeof gstr);
    printf("gbuf empty: %d\n", gbuf[0] == 0 && gbuf[31] == 0);
    *gcfg.value += 1;
    printf("cfg %s=%d scale=%g\n", gcfg.name, counter, gcfg.scale);
    for (int i = 0; i < 3; i++)
        printf("cfgs[%d] %s %d %g\n", i, gcfgs[i].name, gcfgs[i].value ? *gcfgs[i].value : -1, gcfgs[i].scale);
    for (int i = 0; i < 5; i++) printf("id %d\n", next_id());
    for (int i = 0; i < 10; i++) printf("%d ", fib_static());
    printf("\n");
    const char *l1 = label(1);
    printf("%s\n", l1);
    label(2);
    printf("same static buffer now: %s\n", l1);
    file_static *= 6;
    printf("file_static=%d\n", file_static);
    {
        static int block_static = 5;
        block_static++;
        printf("block_static=%d\n", block_static);
    }
    return 0;
}
