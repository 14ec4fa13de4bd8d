! Transformational intrinsics (Fortran 2003 §13.7): `dim=` and `mask=` on the reductions,
! `maxloc`/`minloc`, `matmul` and `transpose`.
program transformational
  implicit none
  integer :: i, j
  real :: a(3, 4), b(4, 2), c(3, 2), t(4, 3), v(4), w(3)
  integer :: m(2, 3), loc(2), k(5)
  do j = 1, 4
    do i = 1, 3
      a(i, j) = real(i * 10 + j) - 2.5 * mod(i + j, 3)
    end do
  end do
  do j = 1, 2
    do i = 1, 4
      b(i, j) = 0.25 * i - j
    end do
  end do
  v = [1.0, -2.0, 0.5, 3.0]
  m = 0
  do j = 1, 3
    do i = 1, 2
      m(i, j) = (i - 2) * j + mod(i * j, 4)
    end do
  end do
  print *, 'sum dim=1:', sum(a, dim=1)
  print *, 'sum dim=2:', sum(a, 2)
  print *, 'sum mask :', sum(a, mask=a > 15.0)
  print *, 'product dim=1:', product(m + 3, dim=1)
  print *, 'maxval dim=2:', maxval(a, dim=2)
  print *, 'minval dim=1:', minval(a, 1)
  print *, 'maxval mask:', maxval(a, mask=a < 20.0)
  print *, 'count dim=1:', count(a > 20.0, dim=1)
  print *, 'count:', count(m > 0)
  print *, 'any dim=2:', any(m > 1, dim=2)
  print *, 'all dim=1:', all(m >= -1, dim=1)
  print *, 'maxloc a:', maxloc(a)
  print *, 'minloc a:', minloc(a)
  loc = maxloc(m)
  print *, 'maxloc m:', loc
  print *, 'minloc v:', minloc(v), maxloc(v)
  print *, 'maxloc v dim=1:', maxloc(v, dim=1)
  print *, 'maxloc a dim=2:', maxloc(a, dim=2)
  print *, 'maxloc masked:', maxloc(v, mask=v < 1.0)
  k = [3, 9, 9, 1, 9]
  print *, 'first max:', maxloc(k), minloc(k)
  c = matmul(a, b)
  do i = 1, 3
    print '(2f9.2)', c(i, :)
  end do
  w = matmul(a, v)
  print '(3f9.2)', w
  print '(2f9.2)', matmul(v, b)
  t = transpose(a)
  print '(3f7.1)', t
  print *, 'trace-like:', sum(transpose(a(:, 1:3)) * a(:, 1:3))
end program transformational
