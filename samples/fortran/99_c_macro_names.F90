! Issue 16: a preprocessed Fortran file (`.F90`) goes through the C preprocessor in traditional
! mode with gfortran's predefined macros, not the C compiler's: `unix`, `linux` and `i386` stay
! Fortran names (gcc defines the first two as 1 on Linux, which turned `integer :: unix` into
! `integer :: 1`), while `__GFORTRAN__`, `_OPENACC` and the program's own macros are defined.
#define NPOINTS 6
#define SCALE(x) (2 * (x))
program c_macro_names
  implicit none
  integer :: unix, linux, i386, i
  real(8) :: total
  unix = NPOINTS
  linux = SCALE(unix)
  i386 = 0
  total = 0
  do i = 1, linux
    total = total + i
  end do
#ifdef __GFORTRAN__
  i386 = i386 + 1
#endif
#ifdef _OPENACC
  i386 = i386 + 10
#endif
#if defined(__linux__) || defined(__STDC_VERSION__)
  i386 = i386 + 100
#endif
  print '(a, i0, a, i0, a, i0, a, f6.1)', 'unix=', unix, ' linux=', linux, ' i386=', i386, ' total=', total
end program c_macro_names
