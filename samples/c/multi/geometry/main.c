// Exercises: a program linked from three translation units (main.c,
// shapes.c, util.c) sharing geometry.h: extern variables and arrays,
// struct types passed between files, and a `static` helper named `helper`
// plus a `static int calls` defined in BOTH shapes.c and util.c, which
// must stay separate objects.
#include <stdio.h>
#include "geometry.h"

static int calls = 1000;  /* a third, unrelated `calls` */

int main(void) {
    const char *names[] = {"triangle", "square", "hexagon"};
    int sides[] = {3, 4, 6};
    for (int i = 0; i < 3; i++) {
        struct shape s = make_regular(names[i], sides[i], 2.0);
        describe(&s);
        calls++;
    }
    printf("shapes_created=%d util_calls=%d main calls=%d\n", shapes_created, util_calls(), calls);
    printf("unit_scale=%g kind_names[1]=%s\n", unit_scale, kind_names[1]);
    return 0;
}
