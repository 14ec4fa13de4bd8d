! Kernels that are the same code up to the order of their captures (issue 16): each sweep
! below reads one grid and writes another, the grids named in clause order. accsim's native
! engine translates each kernel with its captures in the order of their first use
! (jit/src/canon.rs) and generates their machine code once (jit/src/shared.rs); every sweep
! must still read and write its own grids.
program shared_sweeps
  implicit none
  integer, parameter :: n = 50000
  real(8), allocatable :: u(:), v(:), w(:)
  integer :: i, it
  allocate(u(n), v(n), w(n))
  do i = 1, n
    u(i) = dble(mod(i * 7, 13))
    v(i) = 0.0d0
    w(i) = 0.0d0
  end do
  !$acc data copy(u, v, w)
  do it = 1, 3
    !$acc parallel loop present(u, v)
    do i = 2, n - 1
      v(i) = 0.5d0 * (u(i - 1) + u(i + 1))
    end do
    !$acc parallel loop present(v, w)
    do i = 2, n - 1
      w(i) = 0.5d0 * (v(i - 1) + v(i + 1))
    end do
    !$acc parallel loop present(u, w)
    do i = 2, n - 1
      u(i) = 0.5d0 * (w(i - 1) + w(i + 1))
    end do
  end do
  !$acc end data
  print '(a, f16.6, a, f16.6, a, f16.6)', 'u ', sum(u), ' v ', sum(v), ' w ', sum(w)
  print '(a, f12.6, a, f12.6, a, f12.6)', 'u(10) ', u(10), ' v(777) ', v(777), ' w(3333) ', w(3333)
  deallocate(u, v, w)
end program shared_sweeps
