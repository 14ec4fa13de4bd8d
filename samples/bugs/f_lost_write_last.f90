! A scalar written in a parallel construct without a data clause is firstprivate there
! (OpenACC 2.0 §2.5.1): the value stays on the device.
program lost_write_last
  implicit none
  integer :: a(50), last, i
  a = [(mod(i - 1, 7), i = 1, 50)]
  last = -1
  !$acc parallel copyin(a) num_gangs(1)
  last = a(50) ! expect: lost-write
  !$acc end parallel
  print '(a, i0)', 'last = ', last
end program lost_write_last
