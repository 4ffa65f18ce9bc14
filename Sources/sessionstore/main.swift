print("sessionstore")
