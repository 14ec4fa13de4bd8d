! `enter data` mapped ten elements; the update names twenty (OpenACC 2.0 §2.6.4: a section
! must be wholly present or wholly absent).
program partially_present_enter
  implicit none
  integer, allocatable :: p(:)
  allocate(p(20))
  p = 0
  !$acc enter data copyin(p(1:10))
  !$acc update self(p(1:20)) ! expect: partially-present
  !$acc exit data delete(p(1:10))
  print '(a, i0)', 'p(1) = ', p(1)
  deallocate(p)
end program partially_present_enter
