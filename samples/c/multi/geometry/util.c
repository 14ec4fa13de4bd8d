// Part of the geometry multi-file sample: perimeter, printing, constants.
#include <stdio.h>
#include <math.h>
#include "geometry.h"

const double unit_scale = 1.5;
const char *const kind_names[] = {"point", "polygon", "circle"};
static int calls;  /* same name as shapes.c's static: a different object */

static double helper(const struct point *a, const struct point *b) {
    return hypot(a->x - b->x, a->y - b->y);
}

double polygon_perimeter(const struct shape *s) {
    double p = 0;
    calls++;
    for (int i = 0; i < s->nverts; i++) p += helper(&s->verts[i], &s->verts[(i + 1) % s->nverts]);
    return p;
}

void describe(const struct shape *s) {
    calls++;
    printf("%s: %d vertices, area %.12f, perimeter %.12f\n", s->name, s->nverts, polygon_area(s),
           polygon_perimeter(s));
    for (int i = 0; i < s->nverts; i++) printf("  v%d = (%.6f, %.6f)\n", i, s->verts[i].x, s->verts[i].y);
}

int util_calls(void) { return calls; }
