! A matrix product on the device (`parallel loop collapse(2)` with a sequential inner loop,
! OpenACC 2.0 §2.7.1), checked on the host against the `matmul` intrinsic; the row and column
! of the largest element come from `maxloc`.
program acc_matmul_check
  implicit none
  integer, parameter :: n = 24, m = 16, p = 20
  real(8) :: a(n, m), b(m, p), c(n, p), ref(n, p)
  integer :: i, j, k, worst(2)
  real(8) :: s
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 3 + j, 11)) / 7.0d0
    end do
  end do
  do j = 1, p
    do i = 1, m
      b(i, j) = dble(mod(i + 5 * j, 13)) / 5.0d0 - 1.0d0
    end do
  end do
  !$acc parallel loop collapse(2) copyin(a, b) copyout(c) private(s)
  do j = 1, p
    do i = 1, n
      s = 0.0d0
      do k = 1, m
        s = s + a(i, k) * b(k, j)
      end do
      c(i, j) = s
    end do
  end do
  ref = matmul(a, b)
  print '(a, l1)', 'matches matmul: ', maxval(abs(c - ref)) < 1.0d-12
  worst = maxloc(c)
  print '(a, 2i4, f10.4)', 'largest element at:', worst, maxval(c)
  s = 0.0d0
  do i = 1, 16
    s = s + c(i, i)
  end do
  print '(a, f12.6)', 'trace of c(1:16,1:16):', s
  print '(4f10.4)', c(1:4, 1)
  print '(a, 3f10.4)', 'column sums 1-3:', sum(c(:, 1:3), dim=1)
  print '(a, l1)', 'transpose check: ', maxval(abs(transpose(matmul(transpose(b), transpose(a))) - c)) < 1.0d-12
end program acc_matmul_check
