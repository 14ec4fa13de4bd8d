! Kinds: selected_real_kind, integer(8) arithmetic past 2**31, mixed-kind expressions.
program kinds
  implicit none
  integer, parameter :: sp = selected_real_kind(6), dp = selected_real_kind(15)
  integer, parameter :: i8 = selected_int_kind(18)
  integer(kind=i8) :: big, i
  real(sp) :: s
  real(dp) :: d
  big = 1
  do i = 1, 40
    big = big * 2_i8
  end do
  s = 1.0_sp / 3.0_sp
  d = 1.0_dp / 3.0_dp
  print *, big, huge(big)
  print *, s, d, s + d, real(s, dp) - d
  print *, sp, dp, i8
end program kinds
