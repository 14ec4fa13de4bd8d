! Integer kinds 1, 2, 4, 8 in list-directed output and arithmetic with wraparound avoided.
program integer_kinds
  implicit none
  integer(1) :: b
  integer(2) :: s
  integer(4) :: i
  integer(8) :: l
  b = 100
  s = 30000
  i = 2000000000
  l = 9000000000000000000_8
  print *, b, s, i, l
  print *, huge(i), -huge(i) - 1
  print *, l / 1000000007_8, mod(l, 97_8)
end program integer_kinds
