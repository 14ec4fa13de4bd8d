! `update` of a section that no data construct or `enter data` put on the device
! (OpenACC 2.0 §2.10.1: the data must be present).
program not_present_update
  implicit none
  integer :: v(8), i
  v = [(i, i = 1, 8)]
  !$acc update device(v(2:5)) ! expect: not-present
  print '(a, i0)', 'v(1) = ', v(1)
end program not_present_update
