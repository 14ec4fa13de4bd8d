C     Fixed source form (Fortran 2003 §3.3.2): a comment in column 1, statements from column
C     7, continuation in column 6, a labelled DO loop ending at CONTINUE.
      PROGRAM FIXED
      INTEGER I, N
      REAL S, A(5)
      S = 0.0
      N = 5
      DO 10 I = 1, N
         A(I) = I *
     &       2.0
   10 CONTINUE
C$ACC PARALLEL LOOP REDUCTION(+:S)
      DO 20 I = 1, N
         S = S + A(I)
   20 CONTINUE
      PRINT *, 'S =', S
      END
