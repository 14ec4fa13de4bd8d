! Five-point stencil sweeps in a module procedure with assumed-shape dummies (issue 16): the
! shape of Fortran codes that pass their grids to a `subroutine smooth(u, v)` declaring
! `real(8), intent(in) :: u(:, :)`, with `size` for the bounds and a `!$acc parallel loop
! collapse(2) present(u, v)` inside. The main program keeps both grids in one data region and
! swaps the roles each step. -DN=... sets the grid side, -DSTEPS=... the sweeps.
#ifndef N
#define N 1000
#endif
#ifndef STEPS
#define STEPS 60
#endif
module stencil_mod
  implicit none
contains
  subroutine smooth(u, v)
    real(8), intent(in) :: u(:, :)
    real(8), intent(inout) :: v(:, :)
    integer :: i, j, nx, ny
    nx = size(u, 1)
    ny = size(u, 2)
    !$acc parallel loop collapse(2) present(u, v)
    do j = 2, ny - 1
      do i = 2, nx - 1
        v(i, j) = 0.2d0 * (u(i, j) + u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
      end do
    end do
  end subroutine smooth
end module stencil_mod

program stencil
  use stencil_mod
  implicit none
  integer, parameter :: n = N, steps = STEPS
  real(8), allocatable :: p(:, :), q(:, :)
  integer :: i, j, t

  allocate(p(n, n), q(n, n))
  do j = 1, n
    do i = 1, n
      p(i, j) = (dble(i - 1) * dble(j + 1) + 2.0d0) / dble(n)
      q(i, j) = (dble(i - 1) * dble(j + 2) + 3.0d0) / dble(n)
    end do
  end do
  !$acc data copy(p, q)
  do t = 1, steps
    call smooth(p, q)
    call smooth(q, p)
  end do
  !$acc end data
  print '(a, i0, a, i0, a, es19.12, a, es19.12)', 'stencil n=', n, ' steps=', steps, &
    ' sum=', sum(p), ' corner=', p(2, 2)
  deallocate(p, q)
end program stencil
