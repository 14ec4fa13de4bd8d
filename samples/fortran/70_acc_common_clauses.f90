! Issue 16: common block names in data clauses (OpenACC 2.0 §2.7: "the list argument may include
! a Fortran common block name enclosed within slashes"): `copy(/field/)`, `copyin(/coeffs/)` and
! `enter data`/`exit data` with a block stand for every variable of the block, in the procedure
! that declares it; compute constructs then find the members present.
subroutine relax(steps)
  implicit none
  integer, intent(in) :: steps
  real(8) :: u(32), w(32)
  integer :: nsweep
  common /field/ u, w, nsweep
  real(8) :: alpha, beta
  common /coeffs/ alpha, beta
  integer :: i, s
  !$acc data copy(/field/) copyin(/coeffs/)
  do s = 1, steps
    !$acc parallel loop present(u, w, alpha, beta)
    do i = 2, 31
      w(i) = alpha * u(i) + beta * (u(i - 1) + u(i + 1))
    end do
    !$acc parallel loop present(u, w)
    do i = 2, 31
      u(i) = w(i)
    end do
    !$acc kernels present(nsweep)
    nsweep = nsweep + 1
    !$acc end kernels
  end do
  !$acc end data
end subroutine relax

subroutine scale_on_device(factor)
  implicit none
  real(8), intent(in) :: factor
  real(8) :: u(32), w(32)
  integer :: nsweep
  common /field/ u, w, nsweep
  integer :: i
  !$acc parallel loop present(u)
  do i = 1, 32
    u(i) = u(i) * factor
  end do
end subroutine scale_on_device

program acc_common_clauses
  implicit none
  real(8) :: u(32), w(32)
  integer :: nsweep
  common /field/ u, w, nsweep
  real(8) :: alpha, beta
  common /coeffs/ alpha, beta
  integer :: i
  do i = 1, 32
    u(i) = merge(1.0d0, 0.0d0, i == 16)
  end do
  w = 0
  nsweep = 0
  alpha = 0.5d0
  beta = 0.25d0
  call relax(4)
  print '(a, i0)', 'sweeps: ', nsweep
  print '(8f8.4)', u(9:24)
  ! A block entered as data for the rest of the run, used by another procedure, then copied out.
  !$acc enter data copyin(/field/)
  call scale_on_device(2.0d0)
  !$acc exit data copyout(/field/)
  print '(8f8.4)', u(13:20)
  print '(a, f8.4)', 'sum: ', sum(u)
end program acc_common_clauses
