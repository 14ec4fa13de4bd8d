! Issue 16: formatted output whose format is a literal and whose items are scalars is carried out
! by the translator (format control, Fortran 2003 §10.3), the rest by the runtime's format
! interpreter; both must write gfortran's bytes. Repeat counts, groups, reversion to the last
! group, X before and after data, `:`, `/`, doubled quotes, G, L, A with a width, Iw.m, F too
! narrow, ES, E, D, non-advancing output, and the same formats with array items (runtime path).
program format_control
  implicit none
  integer :: i, k(3)
  real(8) :: x, v(4)
  real :: y
  logical :: t
  character(len=5) :: word
  i = 42
  x = -1234.56789d0
  y = 0.000123
  t = .true.
  word = 'abc'
  k = [1, -22, 333]
  v = [0.5d0, -1.5d0, 2.25d0, 1.0d10]
  print '(a, i0, 2x, es19.12, 3x)', 'i=', i, x
  print '(2(i4, "|"), /, f8.2)', i, -i, x
  print '(3f7.2)', 1.0d0, 2.0d0, 3.0d0, 4.0d0, 5.0d0
  print '(i3, 2(1x, i3))', 1, 2, 3, 4, 5, 6, 7
  print '("it''s", 1x, a, ":", a8, "!")', word, word
  print '(i5.3, 1x, i2, 1x, f4.1, 1x, f6.3)', i, 12345, x, 0.5d0
  print '(g12.4, 1x, g12.4, 1x, g0)', x, y, i
  print '(l3, 1x, l1, a)', t, .false., 'x'
  print '(e12.4, 1x, d12.4, 1x, es10.2e3)', x, x, y
  print '(i3, :, " tail")', i
  print '(i3, " tail")', i
  print '(5x, i2)', i
  print '("a", 4x)'
  write (*, '(a, i0)', advance='no') 'no newline ', i
  print '(a)', ' then this'
  print '(3i5)', k
  print '(2f8.3)', v
  print '(a, 3(i4))', 'k:', k
end program format_control
