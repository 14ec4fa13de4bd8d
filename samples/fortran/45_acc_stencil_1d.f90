! A 1-D heat equation: two arrays swapped by a copy loop each step, inside one data region,
! with the boundary values fixed (the time loop runs on the host).
program stencil_1d
  implicit none
  integer, parameter :: n = 101, steps = 500
  real(8) :: u(n), un(n), alpha
  integer :: i, t
  alpha = 0.25d0
  u = 0.0d0
  u(1) = 100.0d0
  u(n) = 50.0d0
  un = u
  !$acc data copy(u) create(un)
  !$acc parallel loop
  do i = 1, n
    un(i) = u(i)
  end do
  do t = 1, steps
    !$acc parallel loop
    do i = 2, n - 1
      un(i) = u(i) + alpha * (u(i - 1) - 2.0d0 * u(i) + u(i + 1))
    end do
    !$acc parallel loop
    do i = 2, n - 1
      u(i) = un(i)
    end do
  end do
  !$acc end data
  write(*, '(5F10.4)') u(1), u(26), u(51), u(76), u(n)
end program stencil_1d
