#ifndef _FUZZ_ASSERT_H
#define _FUZZ_ASSERT_H
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__noreturn__));
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __extension__ __PRETTY_FUNCTION__))
#endif
