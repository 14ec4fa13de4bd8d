! Issue 16 (session 13): reductions of arrays of rank 2 and 3 run over the elements in array
! element order (Fortran 2003 §6.2.2.2: the first subscript varies fastest), as gfortran's do.
! accsim ran the first dimension's loop outermost: `sum` and `product` of real(8) arrays rounded
! differently from gfortran (the last digits of es25.17 differed), `maxloc`/`minloc` returned
! the wrong one of equal elements, and the loops strode across columns. Sums whose rounding
! depends on the order, with `mask=`, of sections and of a rank-3 array; ties for
! `maxloc`/`minloc`; `dim=` reductions, `count`, `maxval` and `minval` of the same data.
program reductions_in_array_element_order
  implicit none
  integer, parameter :: n = 4
  real(8) :: a(n, n), c(3, 2, 2)
  integer :: m(3, 3), i, j, k
  do j = 1, n
    do i = 1, n
      a(i, j) = (-1.0d0) ** (i + j) * 10.0d0 ** (3 * i - 2 * j) / dble(i + 10 * j)
    end do
  end do
  do k = 1, 2
    do j = 1, 2
      do i = 1, 3
        c(i, j, k) = 1.0d0 / dble(i + 3 * j + 7 * k) * 10.0d0 ** (i - 2 * k)
      end do
    end do
  end do
  m = 0
  m(2, 1) = 9
  m(1, 2) = 9
  m(3, 3) = -4
  m(2, 2) = -4
  print '(es25.17)', sum(a)
  print '(es25.17)', product(a)
  print '(es25.17)', sum(a, mask=a > 0.0d0)
  print '(es25.17)', sum(a(2:4, 2:3))
  print '(es25.17)', sum(a * 3.0d0 - 1.0d0)
  print '(es25.17)', sum(c)
  print '(es25.17)', product(c)
  print '(4es25.17)', sum(a, dim=1)
  print '(4es25.17)', sum(a, dim=2)
  print '(es25.17, 1x, es25.17)', maxval(a), minval(a)
  print '(a, 2i3)', 'maxloc(m) =', maxloc(m)
  print '(a, 2i3)', 'minloc(m) =', minloc(m)
  print '(a, 2i3)', 'maxloc(a) =', maxloc(a)
  print '(a, 3i3)', 'maxloc(c) =', maxloc(c)
  print '(a, i0)', 'count(m == 9) = ', count(m == 9)
  print '(a, i0)', 'sum(m) = ', sum(m)
end program reductions_in_array_element_order
