"""Worked solutions to the exercises at the end of each article section (s1 ... s4 for §1 ... §4).

Each page includes a solution's named section inside a collapsed block and runs the call
below it at build time; tests/test_exercises.py checks the property each exercise asks for.
"""
