"""The sequential drivers over stored runs, beside the comparison they extend: ``arena compare
--sequential`` (:mod:`._driver`), ``arena gate --sequential`` (:mod:`._gate`), ``arena judge
--pairs adaptive`` (:mod:`._adaptive_judge`), the stored sequence a continued run continues
(:mod:`._sequence`), its steps, report and trace. The statistics they drive are pure, in
:mod:`arena.sequential`. Imported by their own paths, so loading the gate loads none of them."""
