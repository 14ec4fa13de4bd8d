! Matrix product with a gang loop over columns, a vector loop over rows and a sequential inner
! product loop (its variable is private to each iteration).
program matmul_acc
  implicit none
  integer, parameter :: n = 40
  real(8) :: a(n, n), b(n, n), c(n, n), s
  integer :: i, j, k
  do j = 1, n
    do i = 1, n
      a(i, j) = 1.0d0 / (i + j)
      b(i, j) = dble(i - j) / n
    end do
  end do
  !$acc parallel loop gang copyin(a, b) copyout(c)
  do j = 1, n
    !$acc loop vector private(s)
    do i = 1, n
      s = 0.0d0
      do k = 1, n
        s = s + a(i, k) * b(k, j)
      end do
      c(i, j) = s
    end do
  end do
  print *, c(1, 1), c(n, 1), c(1, n), c(n, n)
  s = 0.0d0
  do i = 1, n
    s = s + c(i, i)
  end do
  print *, 'trace =', s
end program matmul_acc
