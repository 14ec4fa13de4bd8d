! A common block name in `present`: OpenACC 2.0 §2.7 allows common block names in the data
! clauses except `present` and `deviceptr`.
! expect-stderr: common block /grid/ cannot appear in this clause
! expect-stderr: common_in_present.f90:12
program common_in_present
  implicit none
  real :: u(10)
  integer :: i
  common /grid/ u
  u = 1
  !$acc data copy(/grid/)
  !$acc parallel loop present(/grid/)
  do i = 1, 10
    u(i) = 2 * u(i)
  end do
  !$acc end data
  print *, u(1)
end program common_in_present
