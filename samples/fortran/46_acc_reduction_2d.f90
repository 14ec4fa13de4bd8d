! Reductions over a collapsed 2-D loop nest: a sum, a maximum and a count. The sum is printed to
! 3 decimals: a parallel reduction adds in another order than the sequential loop.
program reduction_2d
  implicit none
  integer, parameter :: n = 50, m = 30
  real :: g(n, m), total, biggest
  integer :: i, j, positive
  do j = 1, m
    do i = 1, n
      g(i, j) = sin(real(i) * 0.1) * cos(real(j) * 0.2)
    end do
  end do
  total = 0.0
  biggest = -1.0
  positive = 0
  !$acc parallel loop collapse(2) copyin(g) reduction(+:total, positive) reduction(max:biggest)
  do j = 1, m
    do i = 1, n
      total = total + g(i, j)
      biggest = max(biggest, g(i, j))
      if (g(i, j) > 0.0) positive = positive + 1
    end do
  end do
  write(*, '(F12.3, F10.5, I6)') total, biggest, positive
end program reduction_2d
