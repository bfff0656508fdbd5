package tags

import "golang.org/x/image/font/gofont/gomono"

func gomonoTTF() []byte { return gomono.TTF }
