! A .F90 file goes through the C preprocessor (traditional mode) first, as with gfortran:
! macros, #ifdef, and _OPENACC is defined only under accsim (gfortran without -fopenacc
! leaves it undefined), so the program prints the same either way.
#define N 8
#define SQUARE(x) ((x) * (x))
program preprocessed
  implicit none
  integer :: i, total
  total = 0
  do i = 1, N
    total = total + SQUARE(i)
  end do
#ifdef NEVER_DEFINED
  print *, 'not printed'
#endif
  print *, 'sum of squares to', N, '=', total
end program preprocessed
