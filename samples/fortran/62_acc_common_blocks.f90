! Common blocks (Fortran 2003 §5.5.2): named and blank common shared by the main program and
! external procedures, arrays whose bounds the `common` statement gives, implicitly typed
! members, and common-block arrays in OpenACC data clauses and compute constructs (they are
! global variables, OpenACC 2.0 §2.6).
subroutine init_grid()
  implicit none
  integer :: n
  real(8) :: u(16), v(16)
  common /grid/ u, v, n
  integer :: i
  n = 16
  do i = 1, n
    u(i) = 0.5d0 * i * i
    v(i) = 0.0d0
  end do
end subroutine init_grid

subroutine smooth(steps)
  implicit none
  integer, intent(in) :: steps
  integer :: n
  real(8) :: u(16), v(16)
  common /grid/ u, v, n
  integer :: i, s
  !$acc data copy(u) create(v)
  do s = 1, steps
    !$acc parallel loop present(u, v)
    do i = 2, n - 1
      v(i) = (u(i - 1) + 2.0d0 * u(i) + u(i + 1)) / 4.0d0
    end do
    !$acc parallel loop present(u, v)
    do i = 2, n - 1
      u(i) = v(i)
    end do
  end do
  !$acc end data
end subroutine smooth

subroutine count_calls()
  common /stats/ ncalls, scale
  ncalls = ncalls + 1
  scale = scale * 2.0
end subroutine count_calls

program common_blocks
  implicit none
  integer :: n
  real(8) :: u(16), v(16)
  common /grid/ u, v, n
  integer :: ncalls
  real :: scale
  common /stats/ ncalls, scale
  real :: w(3)
  common w
  integer :: k

  ncalls = 0
  scale = 1.0
  call init_grid()
  call smooth(3)
  do k = 1, 4
    call count_calls()
  end do
  w = [1.0, 2.0, 3.0]
  call blank_user()
  print *, 'n =', n
  print '(4f10.5)', u
  print *, 'calls', ncalls, 'scale', scale
  print *, 'w', w
end program common_blocks

subroutine blank_user()
  real :: w(3)
  common // w
  !$acc parallel loop copy(w)
  do i = 1, 3
    w(i) = w(i) * 10.0 + i
  end do
end subroutine blank_user
