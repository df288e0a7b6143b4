"""§ 196-19 Use of public sewers.

"No person shall discharge or cause to be discharged ..." — what may and may not be
discharged to the public sewers of the Town of Wappinger, the Superintendent's options for
wastes of unusual strength or character (§ 196-19 E, J), grinders, interceptors, control
manholes and sampling. One module per group of subsections.
"""
