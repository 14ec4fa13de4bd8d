! Formatted output with I, F, E, ES, A, L and X edit descriptors (Fortran 2003 §10.6),
! repeat counts, groups, and format reversion.
program formatted
  implicit none
  integer :: i
  real :: x(3)
  double precision :: d
  x = [1.5, -22.25, 0.001]
  d = 12345.6789d0
  write(*, '(I5, I3, I0)') 42, -7, 1234
  write(*, '(A, F8.3, 2X, F6.1)') 'x=', x(1), x(2)
  write(*, '(E12.4, 1X, ES12.4, 1X, E10.3)') d, d, x(3)
  write(*, '(3F7.2)') x
  write(*, '(A5, L3, L2)') 'flag', .true., .false.
  write(*, '(2(I3, 1X))') (i, i = 1, 5)
  print '(A, I4.3)', 'padded:', 7
  print '("value: ", F10.4)', d
  write(*, '(F5.2)') 123.456
  write(*, '(ES10.3)') 0.0
  write(*, '(A)') 'done'
end program formatted
