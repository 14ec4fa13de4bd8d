/* openacc_host.c — the OpenACC 2.0 runtime library (spec ch. 3) for a shared-memory host device.
 *
 * Used only to produce the samples' golden outputs with a plain C compiler (pragmas ignored, so
 * every compute region runs sequentially on the host). It keeps a present table of the ranges
 * entered through the API (acc_copyin, acc_create, acc_map_data, ...) so that acc_is_present,
 * acc_deviceptr and acc_hostptr answer as a separate-memory device would for those ranges; the
 * device address of host data is the host address (spec §2.6.5.1: "for a shared-memory device,
 * host pointers are the same as device pointers"), except for acc_map_data. Data moved by
 * directives is not tracked here (gcc never sees the directives), so a sample must not ask the
 * runtime about data it put on the device with a directive. Runtime errors that the spec names
 * (§3.2.17: copyin of present data; §3.2.21: copyout of absent data) stop the program. */
#include "openacc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct present_entry {
    char *host;     /* start of the host range */
    char *device;   /* its device address (== host but for acc_map_data) */
    size_t bytes;
    int mapped;     /* from acc_map_data: acc_unmap_data ends it, acc_delete may not */
};

enum { MAX_PRESENT = 256 };
static struct present_entry present_table[MAX_PRESENT];
static int present_count;
static acc_device_t current_device_type = acc_device_host;

static void runtime_error(const char *routine, const void *p, size_t bytes, const char *what) {
    fprintf(stderr, "openacc_host: %s(%p, %zu): %s\n", routine, p, bytes, what);
    exit(1);
}

/* The entry whose host range contains [p, p+bytes), or NULL. bytes == 0: contains p. */
static struct present_entry *find_host(const void *p, size_t bytes) {
    uintptr_t lo = (uintptr_t)p;
    for (int i = 0; i < present_count; i++) {
        uintptr_t s = (uintptr_t)present_table[i].host;
        uintptr_t e = s + present_table[i].bytes;
        if (lo >= s && lo < e && (bytes == 0 || lo + bytes <= e)) return &present_table[i];
    }
    return NULL;
}

static struct present_entry *find_device(const void *d) {
    uintptr_t a = (uintptr_t)d;
    for (int i = 0; i < present_count; i++) {
        uintptr_t s = (uintptr_t)present_table[i].device;
        if (a >= s && a < s + present_table[i].bytes) return &present_table[i];
    }
    return NULL;
}

static void *add_entry(const char *routine, void *h, void *d, size_t bytes, int mapped) {
    if (present_count == MAX_PRESENT) runtime_error(routine, h, bytes, "present table full");
    present_table[present_count].host = h;
    present_table[present_count].device = d;
    present_table[present_count].bytes = bytes;
    present_table[present_count].mapped = mapped;
    present_count++;
    return d;
}

static void remove_entry(struct present_entry *e) {
    *e = present_table[--present_count];
}

int acc_get_num_devices(acc_device_t t) {
    return (t == acc_device_host || t == acc_device_default) ? 1 : 0;
}
void acc_set_device_type(acc_device_t t) { current_device_type = t; }
acc_device_t acc_get_device_type(void) { return current_device_type; }
void acc_set_device_num(int n, acc_device_t t) { (void)n; if (t != acc_device_none) current_device_type = t; }
int acc_get_device_num(acc_device_t t) { (void)t; return 0; }

/* A host device completes every operation before the call that enqueued it returns. */
int acc_async_test(int q) { (void)q; return 1; }
int acc_async_test_all(void) { return 1; }
void acc_wait(int q) { (void)q; }
void acc_async_wait(int q, int async) { (void)q; (void)async; }
void acc_wait_async(int q, int async) { (void)q; (void)async; }
void acc_wait_all(void) {}
void acc_async_wait_all(int async) { (void)async; }
void acc_wait_all_async(int async) { (void)async; }

void acc_init(acc_device_t t) { acc_set_device_num(0, t); }
void acc_shutdown(acc_device_t t) { (void)t; }

/* §3.2.14: nonzero for acc_device_host outside compute regions and in regions run on the host. */
int acc_on_device(acc_device_t t) { return t == acc_device_host; }

void *acc_malloc(size_t bytes) { return malloc(bytes ? bytes : 1); }
void acc_free(void *d) { free(d); }

void *acc_copyin(void *h, size_t bytes) {
    if (find_host(h, bytes)) runtime_error("acc_copyin", h, bytes, "data already present");
    return add_entry("acc_copyin", h, h, bytes, 0);
}
void *acc_present_or_copyin(void *h, size_t bytes) {
    struct present_entry *e = find_host(h, bytes);
    if (e) return e->device + ((char *)h - e->host);
    return add_entry("acc_present_or_copyin", h, h, bytes, 0);
}
void *acc_pcopyin(void *h, size_t bytes) { return acc_present_or_copyin(h, bytes); }
void *acc_create(void *h, size_t bytes) {
    if (find_host(h, bytes)) runtime_error("acc_create", h, bytes, "data already present");
    return add_entry("acc_create", h, h, bytes, 0);
}
void *acc_present_or_create(void *h, size_t bytes) {
    struct present_entry *e = find_host(h, bytes);
    if (e) return e->device + ((char *)h - e->host);
    return add_entry("acc_present_or_create", h, h, bytes, 0);
}
void *acc_pcreate(void *h, size_t bytes) { return acc_present_or_create(h, bytes); }

static void end_lifetime(const char *routine, void *h, size_t bytes, int copy_back) {
    struct present_entry *e = find_host(h, bytes);
    if (!e || e->mapped) runtime_error(routine, h, bytes, "data not present");
    if (copy_back && e->device != e->host)
        memmove(e->host, e->device, e->bytes);
    remove_entry(e);
}
void acc_copyout(void *h, size_t bytes) { end_lifetime("acc_copyout", h, bytes, 1); }
void acc_delete(void *h, size_t bytes) { end_lifetime("acc_delete", h, bytes, 0); }

void acc_update_device(void *h, size_t bytes) {
    struct present_entry *e = find_host(h, bytes);
    if (!e) runtime_error("acc_update_device", h, bytes, "data not present");
    char *d = e->device + ((char *)h - e->host);
    if (d != (char *)h) memmove(d, h, bytes);
}
void acc_update_local(void *h, size_t bytes) {
    struct present_entry *e = find_host(h, bytes);
    if (!e) runtime_error("acc_update_local", h, bytes, "data not present");
    char *d = e->device + ((char *)h - e->host);
    if (d != (char *)h) memmove(h, d, bytes);
}
void acc_update_self(void *h, size_t bytes) { acc_update_local(h, bytes); }

void acc_map_data(void *h, void *d, size_t bytes) {
    if (find_host(h, 0)) runtime_error("acc_map_data", h, bytes, "data already present");
    add_entry("acc_map_data", h, d, bytes, 1);
}
void acc_unmap_data(void *h) {
    struct present_entry *e = find_host(h, 0);
    if (!e || !e->mapped) runtime_error("acc_unmap_data", h, 0, "not mapped with acc_map_data");
    remove_entry(e);
}

void *acc_deviceptr(void *h) {
    struct present_entry *e = find_host(h, 0);
    return e ? e->device + ((char *)h - e->host) : NULL;
}
void *acc_hostptr(void *d) {
    struct present_entry *e = find_device(d);
    return e ? e->host + ((char *)d - e->device) : NULL;
}
int acc_is_present(void *h, size_t bytes) { return find_host(h, bytes) != NULL; }

void acc_memcpy_to_device(void *dest, void *src, size_t bytes) { memmove(dest, src, bytes); }
void acc_memcpy_from_device(void *dest, void *src, size_t bytes) { memmove(dest, src, bytes); }
