import Ripple
print("todo")
