! C = A.B for N x N doubles, OpenACC Fortran (issue 16): the twin of ../acc/matmul.c, with
! `parallel loop gang` over the columns of C and a `loop vector reduction(+:s)` over k; the
! arrays are column-major: c(i, j) is
! the sum over k of a(i, k) * b(k, j), the C program's entries (every term is a small integer:
! the sums are exact in any order). Size: -DN=... (default 512).
#ifndef N
#define N 512
#endif
program matmul_bench
  implicit none
  integer, parameter :: n = N
  real(8), allocatable :: a(:, :), b(:, :), c(:, :)
  real(8) :: s, total, weighted, squares
  integer :: i, j, k
  allocate(a(n, n), b(n, n), c(n, n))
  do j = 1, n
    do i = 1, n
      a(i, j) = dble(mod((i - 1) + 2 * (j - 1), 7) - 3)
      b(i, j) = dble(mod(3 * (i - 1) + (j - 1), 5) - 2)
    end do
  end do
  !$acc data copyin(a, b) copyout(c)
  !$acc parallel loop gang present(a, b, c)
  do j = 1, n
    do i = 1, n
      s = 0.0d0
      !$acc loop vector reduction(+:s)
      do k = 1, n
        s = s + a(i, k) * b(k, j)
      end do
      c(i, j) = s
    end do
  end do
  !$acc end data
  ! Row-major order of the C program's checksums: element (i, j) is number (i-1)*n + j-1.
  total = 0.0d0
  weighted = 0.0d0
  squares = 0.0d0
  do i = 1, n
    do j = 1, n
      total = total + c(i, j)
      weighted = weighted + c(i, j) * dble(mod((i - 1) * n + (j - 1), 3) + 1)
      squares = squares + c(i, j) * c(i, j)
    end do
  end do
  print '(a, i0, a, f0.1, a, f0.1, a, f0.1, a, f0.1, a, f0.1)', 'matmul n=', n, ' sum=', total, &
    ' weighted=', weighted, ' squares=', squares, ' c[0]=', c(1, 1), ' c[last]=', c(n, n)
  deallocate(a, b, c)
end program matmul_bench
