// Shared declarations for the geometry multi-file sample.
#ifndef GEOMETRY_H
#define GEOMETRY_H

struct point { double x, y; };
struct shape {
    const char *name;
    int nverts;
    struct point verts[8];
};

extern int shapes_created;          /* defined in shapes.c */
extern const double unit_scale;     /* defined in util.c */
extern const char *const kind_names[]; /* defined in util.c, size unknown here */

struct shape make_regular(const char *name, int n, double radius);
double polygon_area(const struct shape *s);
double polygon_perimeter(const struct shape *s);
void describe(const struct shape *s);
int util_calls(void);

#endif
