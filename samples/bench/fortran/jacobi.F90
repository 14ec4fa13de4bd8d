! Jacobi relaxation on an N x N grid of doubles, OpenACC Fortran (issue 16): the twin of
! ../acc/jacobi.c. ITERS sweeps in one `!$acc data` region, each a `parallel loop collapse(2)
! gang vector`; the grid is column-major, a(j, i) holding the C program's a[i][j], so the inner
! loop runs down a column. The sweeps alternate between the two grids (Fortran has no pointer
! swap of allocatable arrays in the subset accsim reads).
! Sizes: -DN=... (grid side, at least 3), -DITERS=... (sweeps, default 40).
#ifndef N
#define N 1024
#endif
#ifndef ITERS
#define ITERS 40
#endif
program jacobi
  implicit none
  integer, parameter :: n = N, iters = ITERS
  real(8), allocatable :: a(:, :), b(:, :)
  real(8) :: v, s, d, centre
  integer :: i, j, it
  allocate(a(n, n), b(n, n))
  ! Fixed boundary (hot top edge) and a deterministic interior pattern.
  do i = 1, n
    do j = 1, n
      v = dble(mod((i - 1) * 37 + (j - 1) * 91, 101)) / 101.0d0
      if (i == 1) v = 1.0d0
      a(j, i) = v
      b(j, i) = v
    end do
  end do
  !$acc data copy(a, b)
  do it = 1, iters
    if (mod(it, 2) == 1) then
      !$acc parallel loop collapse(2) gang vector present(a, b)
      do i = 2, n - 1
        do j = 2, n - 1
          b(j, i) = 0.25d0 * (a(j, i - 1) + a(j, i + 1) + a(j - 1, i) + a(j + 1, i))
        end do
      end do
    else
      !$acc parallel loop collapse(2) gang vector present(a, b)
      do i = 2, n - 1
        do j = 2, n - 1
          a(j, i) = 0.25d0 * (b(j, i - 1) + b(j, i + 1) + b(j - 1, i) + b(j + 1, i))
        end do
      end do
    end if
  end do
  !$acc end data
  ! The newest grid is b after an odd number of sweeps, a after an even one.
  s = 0.0d0
  d = 0.0d0
  do i = 1, n
    do j = 1, n
      if (mod(iters, 2) == 1) then
        s = s + b(j, i)
      else
        s = s + a(j, i)
      end if
      d = d + abs(a(j, i) - b(j, i))
    end do
  end do
  if (mod(iters, 2) == 1) then
    centre = b(n / 2 + 1, n / 2 + 1)
  else
    centre = a(n / 2 + 1, n / 2 + 1)
  end if
  print '(a, i0, a, i0, a, es19.12, a, es19.12, a, es19.12)', 'jacobi n=', n, ' sweeps=', iters, &
    ' sum=', s, ' diff=', d, ' centre=', centre
  deallocate(a, b)
end program jacobi
